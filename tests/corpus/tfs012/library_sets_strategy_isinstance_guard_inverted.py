"""The same library `build`, but the test's guard is inverted: the direct call runs exactly when
the library set its MirroredStrategy, in cross-replica context."""
import tensorflow as tf


def get_num_gpus():
    return len(tf.config.list_physical_devices("GPU"))


def one_layer_model():
    inputs = tf.keras.Input(shape=(3,))
    outputs = tf.keras.layers.Dense(1, use_bias=False)(inputs)
    return tf.keras.Model(inputs=inputs, outputs=outputs)


def build(model_fn, optimizer_fn):
    model = None
    if get_num_gpus() > 1:
        if not isinstance(tf.distribute.get_strategy(), tf.distribute.MirroredStrategy):
            model = model_fn()
            if isinstance(model, tf.keras.Model):
                model = None  # built again below, under the strategy
                tf.distribute.experimental_set_strategy(tf.distribute.MirroredStrategy())
    model = model_fn() if model is None else model
    model.current_optimizer = optimizer_fn()
    return model


def test_update_with_gradients():
    def update(x, model):
        with tf.GradientTape() as tape:
            y = model(x)
        gradients = tape.gradient(y, model.trainable_variables)
        model.current_optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return gradients

    model = build(one_layer_model, lambda: tf.keras.optimizers.SGD(0.1))
    x = tf.constant([[1.0, 1.0, 1.0]])
    strategy = tf.distribute.get_strategy()
    if not isinstance(strategy, tf.distribute.MirroredStrategy):
        strategy.run(update, args=(x, model))
    else:
        update(x, model)  # expect: TFS012
