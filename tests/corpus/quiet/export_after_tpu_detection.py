"""An export script that keeps the usual TPU-detection block: the models are built, loaded and
saved for serving, never compiled or trained, so nothing is meant to be distributed."""
import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()


def get_model(weight_path):
    backbone = tf.keras.applications.EfficientNetB3(include_top=False, weights=None, input_shape=(512, 512, 3))
    embedding = tf.keras.layers.Dense(512, name="dense")(tf.keras.layers.GlobalAveragePooling2D()(backbone.output))
    model = tf.keras.Model(backbone.input, embedding)
    model.load_weights(weight_path)
    return model


model = get_model("weights/fold0.hdf5")
serving_model = tf.keras.Model(model.input, model.get_layer("dense").output)
tf.saved_model.save(serving_model, "export/fold0")
