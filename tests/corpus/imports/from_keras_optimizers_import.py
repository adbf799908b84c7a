import tensorflow as tf
from tensorflow.keras.metrics import AUC
from tensorflow.keras.optimizers import Adam

strategy = tf.distribute.MirroredStrategy()
adam = Adam(learning_rate=2e-4)  # expect: TFS002
auc = AUC(curve="PR")  # expect: TFS003

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(12,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=adam, loss="binary_crossentropy", metrics=[auc])
