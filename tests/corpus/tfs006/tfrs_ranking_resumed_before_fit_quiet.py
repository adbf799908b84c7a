"""A TF Recommenders DLRM resumed right after construction: `tfrs.experimental.models.Ranking` is
a subclassed Keras model whose layers make their weights at the first call, so the restore
outside the scope finds no variable to fill and creates none; `fit` makes them, under the
strategy, and the deferred values land then."""
import tensorflow as tf
import tensorflow_recommenders as tfrs

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tfrs.experimental.models.Ranking(
        embedding_layer=tf.keras.layers.Embedding(10_000, 16),
        bottom_stack=tfrs.layers.blocks.MLP(units=[64, 16], final_activation="relu"),
        feature_interaction=tfrs.layers.feature_interaction.DotInteraction(),
        top_stack=tfrs.layers.blocks.MLP(units=[64, 1], final_activation="sigmoid"),
    )
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3))
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)

latest = tf.train.latest_checkpoint("ranking_checkpoints")
if latest:
    checkpoint.restore(latest)

with strategy.scope():
    model.fit(tf.data.Dataset.load("criteo_train"), epochs=3)
checkpoint.save("ranking_checkpoints/ckpt")
