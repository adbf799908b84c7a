import tensorflow as tf


def model_fn(features, labels, mode):
    logits = tf.keras.layers.Dense(10)(features["x"])
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=0.1)
    train_op = optimizer.minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    features = {"x": tf.random.normal((256, 4))}
    labels = tf.random.uniform((256,), maxval=10, dtype=tf.int32)
    return tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(32)


# the estimator applies the strategy itself: no scope is needed or entered
strategy = tf.distribute.MirroredStrategy()
config = tf.estimator.RunConfig(train_distribute=strategy)
classifier = tf.estimator.Estimator(model_fn=model_fn, config=config)
classifier.train(input_fn=input_fn, steps=100)
