"""DeepRegNet/DeepReg#507 (tensorflow==2.3.1 pinned; last modified: 2020/10/05): resuming on 2 GPUs,
"Trying to create optimizer slot variable under the scope for tf.distribute.Strategy
(_DefaultDistributionStrategy), which is different from the scope used for the original variable
(MirroredVariable ...)"."""
import tensorflow as tf


def train(ckpt_path, dataset, epochs):
    num_devices = max(len(tf.config.list_physical_devices("GPU")), 1)
    if num_devices > 1:
        strategy = tf.distribute.MirroredStrategy()
    else:
        strategy = tf.distribute.get_strategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam(1e-4)

    model.compile(optimizer=optimizer, loss="mse")
    if ckpt_path:
        model.load_weights(ckpt_path)  # expect: TFS006
    model.fit(dataset, epochs=epochs)
