import keras
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
running_mean = keras.Variable(0.0, trainable=False, name="running_mean")  # expect: TFS004

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])


def eval_step(features):
    predictions = model(features, training=False)
    running_mean.assign(0.9 * running_mean + 0.1 * tf.reduce_mean(predictions))
    return predictions


@tf.function
def distributed_eval_step(features):
    return strategy.run(eval_step, args=(features,))
