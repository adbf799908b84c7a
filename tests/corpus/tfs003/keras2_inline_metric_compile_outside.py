import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(30,))])

# Keras 2 enters the model's strategy for a string optimizer, but the AUC is built right here
model.compile(
    optimizer="adam",
    loss="binary_crossentropy",
    metrics=[keras.metrics.AUC(name="auc")],  # expect: TFS003
)
model.fit(tf.random.normal((200, 30)), tf.cast(tf.random.uniform((200, 1)) > 0.5, tf.float32), epochs=2)
