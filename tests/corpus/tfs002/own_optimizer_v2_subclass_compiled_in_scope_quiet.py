"""A face-landmark trainer's own optimizer, written against OptimizerV2 (`_set_hyper`, `add_slot`,
`_resource_apply_dense`: the 2.11+ and Keras 3 optimizers have none of them). Made outside the
scope, it makes no variable before its first `apply_gradients`, which `fit` runs under the model's
strategy."""
import tensorflow as tf


class AngularGrad(tf.keras.optimizers.Optimizer):
    def __init__(self, learning_rate=1e-3, beta_1=0.9, beta_2=0.999, name="AngularGrad", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "exp_avg")
            self.add_slot(var, "exp_avg_sq")

    def _resource_apply_dense(self, grad, var, apply_state=None):
        exp_avg = self.get_slot(var, "exp_avg")
        exp_avg.assign(self._get_hyper("beta_1") * exp_avg + grad)
        return var.assign_sub(self._get_hyper("learning_rate") * exp_avg)


strategy = tf.distribute.MirroredStrategy()
optimizer = AngularGrad(learning_rate=1e-4)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((112, 112, 3)), tf.keras.layers.Conv2D(16, 3),
                                 tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(196)])
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.zeros((8, 112, 112, 3)), tf.zeros((8, 196)), epochs=1)
