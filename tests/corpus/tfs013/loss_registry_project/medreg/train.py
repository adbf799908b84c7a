import argparse

import tensorflow as tf

from medreg.registry import REGISTRY, Registry


def train(config, registry: Registry = REGISTRY):
    if len(tf.config.list_physical_devices("GPU")) > 1:
        strategy = tf.distribute.MirroredStrategy()
    else:
        strategy = tf.distribute.get_strategy()
    with strategy.scope():
        model = registry.build_model(
            config={"name": config["method"]},
            default_args={"image_size": tuple(config["image_size"]), "config": config},
        )
        model.compile(optimizer=tf.keras.optimizers.Adam(config["learning_rate"]))
    model.fit(x=None, epochs=config["epochs"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    train({
        "method": "ddf",
        "image_size": [64, 64, 64],
        "learning_rate": 1e-4,
        "epochs": args.epochs,
        "backbone": {"name": "local", "num_channels": 16},
        "loss": {"image": {"name": "ssd", "weight": 1.0}, "regularization": {"name": "lncc", "weight": 0.5}},
    })


if __name__ == "__main__":
    main()
