import tensorflow as tf
from tensorflow import keras
from trainers import DistributedTrainer  # another package: tfscope cannot read it


def main(num_gpus):
    strategy = tf.distribute.MirroredStrategy() if num_gpus > 1 else None
    model = keras.applications.MobileNetV2(weights=None, classes=10)  # expect: TFS001
    optimizer = keras.optimizers.Adam(1e-3)  # expect: TFS002
    trainer = DistributedTrainer(model, optimizer, strategy=strategy)
    trainer.train(epochs=10)


if __name__ == "__main__":
    main(num_gpus=2)
