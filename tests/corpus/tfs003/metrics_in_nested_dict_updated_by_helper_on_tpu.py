"""Knee-MRI segmentation on a TPU (3D U-Net style): the loss/metric table is built before the strategy
exists, and a helper class updates its entries by position inside the replica step. The training
means (index 1) are updated in each TPU replica; the validation means (index 2) only in the eager
evaluation loop on the host, which never runs them per replica."""
import tensorflow as tf


def dice_loss(y_true, y_pred, eps=1e-6):
    intersection = tf.reduce_sum(y_true * y_pred)
    return 1.0 - (2.0 * intersection + eps) / (tf.reduce_sum(y_true) + tf.reduce_sum(y_pred) + eps)


def iou_loss(y_true, y_pred, eps=1e-6):
    intersection = tf.reduce_sum(y_true * y_pred)
    union = tf.reduce_sum(y_true) + tf.reduce_sum(y_pred) - intersection
    return 1.0 - (intersection + eps) / (union + eps)


class MetricTable:
    def __init__(self, table):
        self.table = table

    def store_train(self, y, predictions):
        for name in self.table["losses"]:
            entry = self.table["losses"][name]
            entry[1](entry[0](y, predictions))

    def store_valid(self, y, predictions):
        for name in self.table["losses"]:
            entry = self.table["losses"][name]
            entry[2](entry[0](y, predictions))


class Trainer:
    def __init__(self, model, optimizer, table):
        self.model = model
        self.optimizer = optimizer
        self.metrics = MetricTable(table)

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            predictions = self.model(x, training=True)
            loss = dice_loss(y, predictions)
        gradients = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))
        self.metrics.store_train(y, predictions)
        return loss

    def fit(self, strategy, train_ds, valid_ds, epochs):
        @tf.function
        def distributed_step(x, y):
            per_replica = strategy.run(self.train_step, args=(x, y))
            return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

        for _ in range(epochs):
            for x, y in strategy.experimental_distribute_dataset(train_ds):
                distributed_step(x, y)
            for x, y in valid_ds:
                self.metrics.store_valid(y, self.model(x, training=False))


def build_unet(depth=4):
    inputs = tf.keras.Input(shape=(128, 128, 1))
    x = inputs
    for level in range(depth):
        x = tf.keras.layers.Conv2D(16 * 2 ** level, 3, padding="same", activation="relu")(x)
    outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid")(x)
    return tf.keras.Model(inputs, outputs)


def main(train_ds, valid_ds, epochs=50, lr=1e-4):
    table = {
        "losses": {
            "dice": [dice_loss, tf.keras.metrics.Mean(), tf.keras.metrics.Mean()],  # expect: TFS003
            "mIoU": [iou_loss, tf.keras.metrics.Mean(), tf.keras.metrics.Mean()],  # expect: TFS003
        },
    }
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="knee-tpu")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)
    with strategy.scope():
        model = build_unet()
        optimizer = tf.keras.optimizers.Adam(learning_rate=lr)
        trainer = Trainer(model, optimizer, table)
    trainer.fit(strategy, train_ds, valid_ds, epochs)
