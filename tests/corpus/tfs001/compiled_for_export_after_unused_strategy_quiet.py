"""Export of a trained segmentation model: the project's GPU set-up makes a MirroredStrategy at
import, and this script rebuilds the model, loads the checkpoint and compiles it only so the
SavedModel carries its loss and metric; nothing trains it here."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
print("Number of devices:", strategy.num_replicas_in_sync)


def load_model_with_ckpt(ckpt_path, num_classes=21):
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    metrics = tf.keras.metrics.MeanIoU(num_classes=num_classes)
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-4)
    inputs = tf.keras.Input((512, 512, 3))
    features = tf.keras.layers.Conv2D(64, 3, padding="same", activation="relu")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Conv2D(num_classes, 1)(features))
    model.load_weights(ckpt_path)
    model.compile(optimizer=optimizer, loss=loss, metrics=[metrics])
    return model


if __name__ == "__main__":
    model = load_model_with_ckpt("output/best.ckpt")
    model.save("output/saved_model")
    print(model.predict(tf.zeros((1, 512, 512, 3))).shape)
