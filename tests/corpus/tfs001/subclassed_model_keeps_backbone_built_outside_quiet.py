import tensorflow as tf
from tensorflow import keras


class Distiller(keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher

    def call(self, inputs):
        return self.student(inputs)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    teacher = keras.applications.ResNet50(weights="imagenet", include_top=True)
    student = keras.Sequential([keras.Input(shape=(224, 224, 3)), keras.layers.Flatten(), keras.layers.Dense(1000)])
    distiller = Distiller(student=student, teacher=teacher)
    distiller.compile(optimizer=keras.optimizers.Adam(), loss="kl_divergence")
