import tensorflow as tf

import trainer

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(2))
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")
    seq_trainer = trainer.Trainer(tf.keras.optimizers.Adam(), loss_fn, strategy)
seq_trainer.fit(model, dataset, epochs=2)
