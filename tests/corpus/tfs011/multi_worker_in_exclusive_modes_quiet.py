import tensorflow as tf


class MultiWorkerExecuter:
    def __init__(self, flags):
        self._flags = flags

    def build_strategy_configuration(self):
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        return tf.estimator.RunConfig(train_distribute=strategy, model_dir=self._flags.model_dir)

    def train(self, input_fn):
        run_config = self.build_strategy_configuration()
        return run_config

    def eval(self, input_fn):
        run_config = self.build_strategy_configuration()
        return run_config

    def train_and_eval(self, train_input_fn, eval_input_fn):
        if self._flags.is_eval_task:
            self.eval(eval_input_fn)
        else:
            self.train(train_input_fn)
