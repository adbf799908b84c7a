import tensorflow as tf
from transformers import AutoTokenizer, TFAutoModelForSequenceClassification

checkpoint = "bert-base-uncased"
strategy = tf.distribute.MirroredStrategy()

tokenizer = AutoTokenizer.from_pretrained(checkpoint)
model = TFAutoModelForSequenceClassification.from_pretrained(checkpoint, num_labels=2)  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=3e-5), metrics=["accuracy"])

encodings = tokenizer(["a great movie", "a dull movie"], padding=True, return_tensors="tf")
labels = tf.constant([1, 0])
model.fit(dict(encodings), labels, epochs=1)
