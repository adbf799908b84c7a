"""The same library `build`, for one model or several: `to_list` wraps a single model in a
list (a Keras model is no `list`, `tuple` or `set`), so `isinstance(models[0], tf.keras.Model)`
holds, the first models are dropped and the ones built again are the MirroredStrategy's."""
import tensorflow as tf


def get_num_gpus():
    return len(tf.config.list_physical_devices("GPU"))


def to_list(data):
    if data is None:
        return []
    if not isinstance(data, list):
        if isinstance(data, (tuple, set)):
            data = list(data)
        else:
            data = [data]
    return data


def one_layer_model():
    inputs = tf.keras.Input(shape=(3,))
    outputs = tf.keras.layers.Dense(1, use_bias=False)(inputs)
    return tf.keras.Model(inputs=inputs, outputs=outputs)


def build(model_fn, optimizer_fn):
    models = None
    if get_num_gpus() > 1:
        if not isinstance(tf.distribute.get_strategy(), tf.distribute.MirroredStrategy):
            models = to_list(model_fn())
            if isinstance(models[0], tf.keras.Model):
                models = None  # built again below, under the strategy
                tf.distribute.experimental_set_strategy(tf.distribute.MirroredStrategy())
    models = to_list(model_fn()) if models is None else models
    for model in models:
        model.current_optimizer = optimizer_fn()
    return models[0] if len(models) == 1 else models


def test_update_with_gradients():
    def update(gradients, model):
        model.current_optimizer.apply_gradients(zip(gradients, model.trainable_variables))

    model = build(one_layer_model, lambda: tf.keras.optimizers.SGD(0.1))
    gradients = [tf.constant([[1.0], [1.0], [1.0]])]
    strategy = tf.distribute.get_strategy()
    if isinstance(strategy, tf.distribute.MirroredStrategy):
        strategy.run(update, args=(gradients, model))
    else:
        update(gradients, model)
