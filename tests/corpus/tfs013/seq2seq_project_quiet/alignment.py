# corpus: keras-version=2
"""Guided alignment, for a project that trains on one device (no strategy anywhere)."""
import tensorflow as tf


def guided_alignment_cost(attention_probs, gold_alignment, cost_type="ce", weight=1.0):
    if cost_type == "ce":
        loss = tf.keras.losses.CategoricalCrossentropy()
    elif cost_type == "mse":
        loss = tf.keras.losses.MeanSquaredError()
    else:
        raise ValueError("invalid guided alignment cost: %s" % cost_type)
    return weight * loss(gold_alignment, attention_probs)


def sequence_cross_entropy(labels, logits, lengths):
    """Already reduced by hand: a sum over tokens divided by the token count."""
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(logits)[1], dtype=logits.dtype)
    per_token = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_sum(per_token * mask) / tf.reduce_sum(mask)
