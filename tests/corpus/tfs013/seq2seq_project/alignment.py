# corpus: keras-version=2
"""Guided alignment: push the attention towards a given word alignment."""
import tensorflow as tf


def guided_alignment_cost(attention_probs, gold_alignment, cost_type="ce", weight=1.0):
    if cost_type == "ce":
        loss = tf.keras.losses.CategoricalCrossentropy()  # expect: TFS013
    elif cost_type == "mse":
        loss = tf.keras.losses.MeanSquaredError()  # expect: TFS013
    else:
        raise ValueError("invalid guided alignment cost: %s" % cost_type)
    return weight * loss(gold_alignment, attention_probs)


def sequence_cross_entropy(labels, logits, lengths):
    """Already reduced by hand: a sum over tokens divided by the token count."""
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(logits)[1], dtype=logits.dtype)
    per_token = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_sum(per_token * mask) / tf.reduce_sum(mask)
