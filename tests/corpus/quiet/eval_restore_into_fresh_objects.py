import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
checkpoint_dir = "./training_checkpoints"


def create_model():
    return tf.keras.Sequential([tf.keras.Input(shape=(28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])


with strategy.scope():
    model = create_model()
    optimizer = tf.keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)

# the custom-training tutorial evaluates with fresh objects and no strategy
eval_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="eval_accuracy")
new_model = create_model()
new_optimizer = tf.keras.optimizers.Adam()
new_checkpoint = tf.train.Checkpoint(optimizer=new_optimizer, model=new_model)
new_checkpoint.restore(tf.train.latest_checkpoint(checkpoint_dir))


@tf.function
def eval_step(images, labels):
    eval_accuracy(labels, new_model(images, training=False))


(_, _), (test_images, test_labels) = tf.keras.datasets.fashion_mnist.load_data()
for images, labels in tf.data.Dataset.from_tensor_slices((test_images[..., None] / 255.0, test_labels)).batch(64):
    eval_step(images, labels)
print(float(eval_accuracy.result()))
