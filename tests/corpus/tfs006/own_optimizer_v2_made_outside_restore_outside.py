"""The trainer's own OptimizerV2 (`_set_hyper`, `add_slot`), made before the scope, belongs to no
strategy: resuming before the first step makes its slots at the restore, under the default
strategy, for the model's mirrored variables ("Trying to create optimizer slot variable under the
scope for tf.distribute.Strategy")."""
import tensorflow as tf


class AngularGrad(tf.keras.optimizers.Optimizer):
    def __init__(self, learning_rate=1e-3, name="AngularGrad", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", learning_rate)

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "exp_avg")

    def _resource_apply_dense(self, grad, var, apply_state=None):
        exp_avg = self.get_slot(var, "exp_avg")
        exp_avg.assign(0.9 * exp_avg + grad)
        return var.assign_sub(self._get_hyper("learning_rate") * exp_avg)


optimizer = AngularGrad(1e-4)
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")

model.load_weights("checkpoints/ckpt-20")  # expect: TFS006
model.fit(tf.zeros((8, 16)), tf.zeros((8, 1)), epochs=1)
