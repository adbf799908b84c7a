"""A classifier builder handed its TF Hub handles (the "Classify text with BERT" tutorial shape):
the preprocessing handle's value is not known here, but the code names it as one, and TF Hub's
text preprocessors hold no variables, so making that layer before the scope is fine."""
import tensorflow as tf
import tensorflow_hub as hub


def build_classifier(preprocess_handle, encoder_handle, strategy):
    text_input = tf.keras.layers.Input(shape=(), dtype=tf.string, name="text")
    encoder_inputs = hub.KerasLayer(preprocess_handle, name="preprocessing")(text_input)
    with strategy.scope():
        encoder = hub.KerasLayer(encoder_handle, trainable=True, name="BERT_encoder")
        pooled = encoder(encoder_inputs)["pooled_output"]
        model = tf.keras.Model(text_input, tf.keras.layers.Dense(1)(pooled))
        model.compile(optimizer=tf.keras.optimizers.Adam(3e-5), loss="binary_crossentropy")
    return model
