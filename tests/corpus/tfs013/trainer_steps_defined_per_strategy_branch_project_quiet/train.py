"""Train a seqtrain model on one GPU, or on all of them with `--num_gpu`."""
import argparse
import json

import tensorflow as tf

from seqtrain import trainer


def build_model(seq_length):
    inputs = tf.keras.Input(shape=(seq_length, 4))
    x = tf.keras.layers.Conv1D(64, 15, activation="relu")(inputs)
    outputs = tf.keras.layers.Dense(1, activation="softplus")(x)
    return tf.keras.Model(inputs, outputs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("params_file")
    parser.add_argument("--num_gpu", type=int, default=1)
    parser.add_argument("-o", "--out_dir", default="train_out")
    args = parser.parse_args()
    with open(args.params_file) as params_open:
        params = json.load(params_open)
    x = tf.random.normal((256, 1024, 4))
    y = tf.random.uniform((256, 1024, 1))

    if args.num_gpu == 1:
        train_data = tf.data.Dataset.from_tensor_slices((x, y)).batch(params["batch_size"])
        model = build_model(1024)
        seq_trainer = trainer.Trainer(params, train_data, args.out_dir)
    else:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(params["batch_size"])
            train_data = strategy.experimental_distribute_dataset(dataset)
            model = build_model(1024)
            seq_trainer = trainer.Trainer(params, train_data, args.out_dir, strategy, args.num_gpu)

    seq_trainer.fit_tape(model)


if __name__ == "__main__":
    main()
