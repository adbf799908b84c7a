"""The same experiment, but the Huber network is trained by a call outside the scope: its branch makes
the Adam optimizer under the default strategy, and `compile` in the scope then fails."""
import time

import numpy as np
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()


def build_network(input_dim, hidden_layers=(128, 64)):
    inputs = keras.Input(shape=(input_dim,))
    x = inputs
    for units in hidden_layers:
        x = keras.layers.Dense(units, activation="relu")(x)
    return keras.Model(inputs, keras.layers.Dense(1)(x))


def train_eval(name_model, epochs, batch_size, loss, x_train, y_train, x_test, y_test):
    start = time.time()
    if name_model in ["OLS_wendland", "OLS_sphere"]:
        coef, *_ = np.linalg.lstsq(x_train, y_train, rcond=None)
        rmse = float(np.sqrt(np.mean((x_test @ coef - y_test) ** 2)))
        return {"RMSE": rmse, "Time": time.time() - start}
    elif name_model in ["DeepKriging_sphere", "DeepKriging_sphere_Huber"]:
        optimizer = keras.optimizers.Adam(learning_rate=5e-3)  # expect: TFS002
    else:
        optimizer = "adam"

    with strategy.scope():
        model = build_network(x_train.shape[1])
        model.compile(optimizer=optimizer, loss=loss)
    model.fit(x_train, y_train, epochs=epochs, batch_size=batch_size, verbose=0)
    rmse = float(np.sqrt(model.evaluate(x_test, y_test, verbose=0)))
    return {"RMSE": rmse, "Time": time.time() - start}


x = np.random.rand(2000, 64).astype("float32")
y = np.random.rand(2000).astype("float32")
parts = (x[:1600], y[:1600], x[1600:], y[1600:])

results = {"OLS_wendland": train_eval("OLS_wendland", None, None, None, *parts)}
for order in (50, 100, 200):
    results[f"OLS_sphere_{order}"] = train_eval("OLS_sphere", None, None, None, *parts)
    with strategy.scope():
        results[f"DeepKriging_sphere_{order}"] = train_eval("DeepKriging_sphere", 200, 2048, "mse", *parts)
    results[f"DeepKriging_sphere_Huber_{order}"] = train_eval(
        "DeepKriging_sphere_Huber", 200, 2048, keras.losses.Huber(1.345), *parts)
print(results)
