import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)

backbone = tf.keras.applications.ResNet50(  # expect: TFS001
    weights=None,
    input_shape=(224, 224, 3),
    classes=100,
)

with strategy.scope():
    backbone.compile(
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )

train_ds = tf.keras.utils.image_dataset_from_directory("data/train", image_size=(224, 224), batch_size=64)
backbone.fit(train_ds, epochs=90)
