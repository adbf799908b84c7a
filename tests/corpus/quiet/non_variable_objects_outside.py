import tensorflow as tf
from tensorflow import keras
from transformers import AutoTokenizer

strategy = tf.distribute.MirroredStrategy()

# none of these own variables: building them outside the scope is fine
tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
lr_schedule = keras.optimizers.schedules.PiecewiseConstantDecay([1000, 2000], [1e-3, 1e-4, 1e-5])
loss = keras.losses.BinaryCrossentropy(from_logits=True)
callbacks = [keras.callbacks.EarlyStopping(patience=2), keras.callbacks.TensorBoard("logs")]
texts = tf.data.Dataset.from_tensor_slices(["good", "bad"]).batch(2)

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(128,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(lr_schedule), loss=loss)

encoded = tokenizer(["good", "bad"], padding="max_length", max_length=128, return_tensors="np")
model.fit(encoded["input_ids"], tf.constant([[1.0], [0.0]]), callbacks=callbacks, epochs=1)
