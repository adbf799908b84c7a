"""Inference with a keypoint detector: the GPU set-up every script of the project starts with makes a
MirroredStrategy, but this one only loads trained weights and predicts; the loss and precision
trackers the model's constructor makes are never updated."""
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
print("Number of devices:", strategy.num_replicas_in_sync)


class MagicPoint(tf.keras.Model):
    def __init__(self, input_shape, nms_size=4):
        super().__init__()
        inputs = tf.keras.Input(input_shape)
        features = tf.keras.layers.Conv2D(64, 3, padding="same", activation="relu")(inputs)
        logits = tf.keras.layers.Conv2D(65, 1)(features)
        self.detector = tf.keras.Model(inputs, logits)
        self.nms_size = nms_size
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")
        self.precision_tracker = tf.keras.metrics.Mean(name="precision")

    def call(self, images):
        return self.detector(images)


model = MagicPoint((240, 320, 1))
model.built = True
model.load_weights("ckpt/magic_point.h5")
for image in tf.data.Dataset.from_tensor_slices(tf.zeros((4, 240, 320, 1))).batch(1):
    keypoints = model.predict(image)
