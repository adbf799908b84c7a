import tensorflow as tf
from tensorflow import keras


class Classifier(keras.Model):
    def __init__(self, backbone, num_classes):
        super().__init__()
        self.backbone = backbone
        self.head = keras.layers.Dense(num_classes)

    def call(self, inputs):
        return self.head(self.backbone(inputs))


# (made outside the scope it is trained in: TFS001, not the restore's doing)
backbone = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(16, activation="relu")])  # expect: TFS001

# a temporary model only to read the pretrained checkpoint into the backbone it wraps
model = Classifier(backbone, num_classes=600)
model.build((None, 32))
checkpoint = tf.train.Checkpoint(model=model)
checkpoint.restore(tf.train.latest_checkpoint("pretrained")).expect_partial()  # not lost: see below

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    # the new classifier reuses the restored backbone: its weights carry over
    model = Classifier(backbone, num_classes=10)
    model.build((None, 32))
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
