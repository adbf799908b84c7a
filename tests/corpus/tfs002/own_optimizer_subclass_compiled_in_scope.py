"""The same trainer's optimizer written for Keras 3 (`build`, `add_variable_from_reference`,
`update_step`): its iterations and learning rate are variables made at construction, outside the
scope, under the default strategy."""
import keras
import tensorflow as tf


class AngularGrad(keras.optimizers.Optimizer):
    def __init__(self, learning_rate=1e-3, beta_1=0.9, name="angular_grad", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1

    def build(self, var_list):
        super().build(var_list)
        self.exp_avgs = [self.add_variable_from_reference(var, "exp_avg") for var in var_list]

    def update_step(self, gradient, variable, learning_rate):
        exp_avg = self.exp_avgs[self._get_variable_index(variable)]
        self.assign(exp_avg, self.beta_1 * exp_avg + gradient)
        self.assign_sub(variable, learning_rate * exp_avg)


strategy = tf.distribute.MirroredStrategy()
optimizer = AngularGrad(learning_rate=1e-4)  # expect: TFS002
with strategy.scope():
    model = keras.Sequential([keras.Input((112, 112, 3)), keras.layers.Conv2D(16, 3),
                              keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(196)])
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.zeros((8, 112, 112, 3)), tf.zeros((8, 196)), epochs=1)
