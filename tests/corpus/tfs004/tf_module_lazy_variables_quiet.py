"""A `tf.Module` whose constructor makes no variable: `apply` makes its averages the first time
it runs, under the strategy current there (`tf.distribute.get_strategy()` inside
`strategy.run`), so where the module was constructed places nothing."""
import tensorflow as tf


class MovingAverage(tf.Module):
    def __init__(self, decay: float = 0.999):
        super().__init__(name="moving_average")
        self.averages = None
        self._decay = decay

    def apply(self, variables):
        if self.averages is None:
            with tf.init_scope():
                strategy = tf.distribute.get_strategy()
                self.averages = []
                for variable in variables:
                    with strategy.extended.colocate_vars_with(variable):
                        self.averages.append(tf.Variable(variable.read_value()))
        for average, variable in zip(self.averages, variables):
            average.assign(self._decay * average + (1.0 - self._decay) * variable)


strategy = tf.distribute.MirroredStrategy()
average = MovingAverage(decay=0.5)

with strategy.scope():
    weights = tf.Variable(2.0)


def update_average(variable):
    average.apply((variable,))


strategy.run(update_average, args=(weights,))
