"""A functional model made outside the scope only wires models made inside it (a distillation
model whose outputs are the teacher's and the student's, a feature extractor cut from a base):
`keras.Model(inputs, outputs)` makes no variable of its own, so nothing is outside the scope."""
import tensorflow as tf
from tensorflow import keras


def build_encoder(width):
    inputs = keras.Input(shape=(128,))
    hidden = keras.layers.Dense(width, activation="relu", name="hidden")(inputs)
    return keras.Model(inputs, keras.layers.Dense(8)(hidden))


def build_distillation_model(teacher, student):
    inputs = student.inputs
    return keras.Model(inputs=inputs, outputs=dict(student=student(inputs), teacher=teacher(inputs)))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    teacher = build_encoder(512)
    student = build_encoder(64)

distiller = build_distillation_model(teacher, student)
features = keras.Model(inputs=teacher.input, outputs=teacher.get_layer("hidden").output)

with strategy.scope():
    distiller.compile(optimizer=keras.optimizers.Adam(1e-3), loss={"student": "mse", "teacher": None})
    features.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
