from tensorflow import distribute, keras

strategy = distribute.MirroredStrategy()
model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
