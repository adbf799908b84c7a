import time

import tensorflow as tf

OOD_DATASETS = ["svhn", "cifar100"]
strategy = tf.distribute.TPUStrategy(tf.distribute.cluster_resolver.TPUClusterResolver())
with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, classes=10)
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    metrics = {
        "test/negative_log_likelihood": tf.keras.metrics.Mean(),
        "test/accuracy": tf.keras.metrics.SparseCategoricalAccuracy(),
    }

# OOD metrics defined outside the accelerator scope "for CPU eval", but updated in the step
for name in OOD_DATASETS:
    metrics.update({
        "ood/auroc_{}".format(name): tf.keras.metrics.AUC(curve="ROC", num_thresholds=2000),  # expect: TFS003
    })
# a host-side timer: read and updated outside `strategy.run` only
metrics["test/ms_per_example"] = tf.keras.metrics.Mean()


@tf.function
def test_step(iterator, dataset_name):
    def step_fn(inputs):
        images, labels = inputs
        probs = tf.nn.softmax(model(images, training=False))
        if dataset_name.startswith("ood_"):
            ood_labels = tf.cast(labels < 0, tf.float32)
            metrics["ood/auroc_{}".format(dataset_name[4:])].update_state(ood_labels, 1.0 - tf.reduce_max(probs, -1))
        else:
            nll = tf.keras.losses.sparse_categorical_crossentropy(labels, probs)
            metrics["test/negative_log_likelihood"].update_state(nll)
            metrics["test/accuracy"].update_state(labels, probs)

    strategy.run(step_fn, args=(next(iterator),))


def evaluate(test_dataset, batch_size):
    start = time.time()
    test_step(iter(test_dataset), "clean")
    metrics["test/ms_per_example"].update_state((time.time() - start) * 1e6 / batch_size)
