"""A course notebook's decorator: the step it wraps always runs through `strategy.run`."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def distributed(reduce=True):
    def decorator(fun):
        def wrapper(*args, **kwargs):
            per_replica = strategy.run(fun, args=args, kwargs=kwargs)
            if reduce:
                return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
            return per_replica
        return wrapper
    return decorator


with strategy.scope():
    discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(8,))])
    param_D = tf.keras.optimizers.Adam(2e-4)


@distributed()
def train_on_batch(real):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(discriminator(real))
    grads = tape.gradient(loss, discriminator.trainable_variables)
    param_D.apply_gradients(zip(grads, discriminator.trainable_variables))
    return loss


for batch in strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2)):
    train_on_batch(batch)
