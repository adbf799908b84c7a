import tensorflow as tf
from tensorflow import keras


def build_encoder(width):
    inputs = keras.Input(shape=(128,))
    hidden = keras.layers.Dense(width, activation="relu")(inputs)
    return keras.Model(inputs, keras.layers.Dense(8)(hidden))


def build_distillation_model(teacher, student):
    inputs = student.inputs
    return keras.Model(inputs=inputs, outputs=dict(student=student(inputs), teacher=teacher(inputs)))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    teacher = build_encoder(512)
student = build_encoder(64)  # expect: TFS001

distiller = build_distillation_model(teacher, student)
with strategy.scope():
    distiller.compile(optimizer=keras.optimizers.Adam(1e-3), loss={"student": "mse", "teacher": None})
