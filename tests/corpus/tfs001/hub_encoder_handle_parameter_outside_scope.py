"""The twin of hub_preprocessor_handle_parameter_quiet.py: here the encoder, whose handle is
just as unknown, is made before the scope, and it holds the weights."""
import tensorflow as tf
import tensorflow_hub as hub


def build_classifier(preprocess_handle, encoder_handle, strategy):
    text_input = tf.keras.layers.Input(shape=(), dtype=tf.string, name="text")
    encoder_inputs = hub.KerasLayer(preprocess_handle, name="preprocessing")(text_input)
    encoder = hub.KerasLayer(encoder_handle, trainable=True, name="BERT_encoder")  # expect: TFS001
    pooled = encoder(encoder_inputs)["pooled_output"]
    with strategy.scope():
        model = tf.keras.Model(text_input, tf.keras.layers.Dense(1)(pooled))
        model.compile(optimizer=tf.keras.optimizers.Adam(3e-5), loss="binary_crossentropy")
    return model
