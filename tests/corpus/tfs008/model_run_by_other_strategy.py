import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
single = tf.distribute.OneDeviceStrategy(device="/gpu:0")

with single.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])


def predict_step(features):
    return model(features, training=False)  # expect: TFS008


@tf.function
def distributed_predict(features):
    return strategy.run(predict_step, args=(features,))


print(distributed_predict(tf.random.normal((8, 4))))
