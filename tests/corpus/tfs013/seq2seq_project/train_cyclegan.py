import tensorflow as tf

from cyclegan import CycleGAN

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    generator_g = tf.keras.Sequential([tf.keras.Input(shape=(64, 64, 3)), tf.keras.layers.Conv2D(3, 3, padding="same")])
    generator_f = tf.keras.Sequential([tf.keras.Input(shape=(64, 64, 3)), tf.keras.layers.Conv2D(3, 3, padding="same")])
    model = CycleGAN(generator_g, generator_f)
    model.compile(tf.keras.optimizers.Adam(2e-4), tf.keras.optimizers.Adam(2e-4))
