"""Trains a MelGAN generator on several GPUs with the package's trainer; mixed precision wraps the
generator's optimizer, made in the scope, in a loss-scale optimizer outside it."""
import argparse

import tensorflow as tf

from ttstrain.trainers.base_trainer import GanBasedTrainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--generator_mixed_precision", action="store_true")
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    trainer = GanBasedTrainer(config={}, strategy=strategy,
                              is_generator_mixed_precision=args.generator_mixed_precision)
    with strategy.scope():
        generator = tf.keras.Sequential([tf.keras.layers.Dense(80, input_shape=(80,))])
        discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(80,))])
        gen_optimizer = tf.keras.optimizers.Adam(learning_rate=1e-4)
        dis_optimizer = tf.keras.optimizers.Adam(learning_rate=1e-4)
    trainer.compile(generator, discriminator, gen_optimizer, dis_optimizer)
    dataset = tf.data.Dataset.from_tensor_slices(tf.zeros((256, 80))).batch(16)
    trainer.fit(dataset, saved_path=args.outdir)


if __name__ == "__main__":
    main()
