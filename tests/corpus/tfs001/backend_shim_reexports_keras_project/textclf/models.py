from textclf.backend import K, L, keras


def text_cnn(vocab_size, num_classes, embedding_dim=128):
    tokens = L.Input(shape=(None,), dtype="int32")
    x = L.Embedding(vocab_size, embedding_dim)(tokens)
    x = L.Conv1D(128, 5, activation="relu")(x)
    x = L.Lambda(lambda t: K.max(t, axis=1))(x)
    outputs = L.Dense(num_classes, activation="softmax")(x)
    return keras.Model(tokens, outputs, name="text_cnn")
