import tensorflow as tf


class Calibrator(tf.Module):
    def __init__(self, num_classes: int):
        super().__init__(name="calibrator")
        self.bias = tf.Variable(tf.zeros([num_classes]), name="bias")

    def __call__(self, logits):
        return logits + self.bias


strategy = tf.distribute.MirroredStrategy()
calibrator = Calibrator(num_classes=10)  # expect: TFS004

with strategy.scope():
    optimizer = tf.keras.optimizers.SGD(0.01)


def calibration_step(logits, labels):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, calibrator(logits))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=256)
    optimizer.apply_gradients(zip(tape.gradient(loss, calibrator.trainable_variables), calibrator.trainable_variables))
    return loss


@tf.function
def distributed_calibration_step(logits, labels):
    return strategy.run(calibration_step, args=(logits, labels))
