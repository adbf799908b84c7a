import keras
import keras_hub
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

# a preprocessor holds a vocabulary, not trainable state
preprocessor = keras_hub.models.BertTextClassifierPreprocessor.from_preset("bert_tiny_en_uncased", sequence_length=64)
train_ds = tf.data.Dataset.from_tensor_slices((["nice", "awful"], [1, 0])).batch(2).map(preprocessor)

with strategy.scope():
    classifier = keras_hub.models.BertTextClassifier.from_preset("bert_tiny_en_uncased", num_classes=2, preprocessor=None)
    classifier.compile(optimizer=keras.optimizers.Adam(2e-5), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

classifier.fit(train_ds, epochs=1)
