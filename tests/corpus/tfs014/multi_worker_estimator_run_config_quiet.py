"""Estimator code under TF2: the first RunConfig only parses TF_CONFIG into a cluster spec and a
session config; no eager context exists yet when the multi-worker strategy is created."""
import json
import os

import tensorflow as tf


def model_fn(features, labels, mode):
    logits = tf.keras.layers.Dense(1)(features["x"])
    loss = tf.compat.v1.losses.mean_squared_error(labels, logits)
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.2)
    train_op = optimizer.minimize(loss, global_step=tf.compat.v1.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    features = {"x": tf.constant([[1.0, 0.0], [0.0, 1.0]])}
    return tf.data.Dataset.from_tensors((features, tf.constant([[1.0], [0.0]]))).repeat()


def train(model_dir):
    config = tf.estimator.RunConfig(tf_random_seed=42, model_dir=model_dir, save_checkpoints_steps=10)
    if json.loads(os.environ["TF_CONFIG"])["task"]["type"] == "evaluator":
        distribution = None
    else:
        distribution = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    config = config.replace(train_distribute=distribution)
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
    tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(input_fn, max_steps=300),
                                    tf.estimator.EvalSpec(input_fn, steps=1))


if __name__ == "__main__":
    train(os.environ.get("MODEL_DIR", "model_dir"))
