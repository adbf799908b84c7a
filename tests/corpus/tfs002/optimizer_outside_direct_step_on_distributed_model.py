"""The model is built and compiled in the scope by a helper; a custom loop then creates its
optimizer outside the scope and calls the step directly. Outside `strategy.run` even a legacy
OptimizerV2 makes its slots at the first step, under the default strategy, for the model's
mirrored variables: TensorFlow raises "Trying to create optimizer slot variable under the scope
for tf.distribute.Strategy (...), which is different from the scope used for the original variable"."""
# corpus: keras-version=2
import tensorflow as tf


def build_and_compile_model(strategy):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    return model


@tf.function
def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def fit_custom(model, dataset, epochs):
    optimizer = tf.keras.optimizers.legacy.Adam(1e-3)  # expect: TFS002
    for epoch in range(epochs):
        for x, y in dataset:
            train_step(model, optimizer, x, y)  # expect: TFS012


def main(dataset):
    strategy = tf.distribute.MirroredStrategy()
    model = build_and_compile_model(strategy)
    fit_custom(model, dataset, epochs=3)


if __name__ == "__main__":
    main(tf.data.Dataset.from_tensor_slices(([[0.0] * 16], [[0.0]])).batch(1))
