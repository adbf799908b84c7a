"""The model derives from a library class tfscope cannot read (OpenNMT's SequenceToSequence), whose
inherited `create_variables` runs the model once in the scope and so builds the domain classifier
it keeps: calling that classifier on its own afterwards builds nothing."""
import opennmt
import tensorflow as tf


class DomainClassifier(tf.keras.layers.Layer):
    def __init__(self, num_domains):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(256, activation="relu")
        self.logits = tf.keras.layers.Dense(num_domains)

    def call(self, encoder_outputs):
        return self.logits(self.hidden(tf.reduce_mean(encoder_outputs, axis=1)))


class DomainAwareTransformer(opennmt.models.SequenceToSequence):
    def __init__(self, source_inputter, target_inputter, encoder, decoder, num_domains):
        super().__init__(source_inputter, target_inputter, encoder, decoder)
        self.domain_classifier = DomainClassifier(num_domains)


def evaluate_domains(model, dataset):
    for features in dataset.take(10):
        encoder_outputs, _, _ = model.encoder(model.features_inputter(features), features["length"])
        print(tf.argmax(model.domain_classifier(encoder_outputs), axis=-1))


def main(config, dataset):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = DomainAwareTransformer(
            opennmt.inputters.WordEmbedder(512), opennmt.inputters.WordEmbedder(512),
            opennmt.encoders.SelfAttentionEncoder(6), opennmt.decoders.SelfAttentionDecoder(6),
            num_domains=config["num_domains"])
        model.initialize(config["data"])
        model.create_variables()
        optimizer = tf.keras.optimizers.Adam(1e-4)
    evaluate_domains(model, dataset)

    @tf.function
    def train_step(features, labels):
        def step_fn(features, labels):
            with tf.GradientTape() as tape:
                outputs, _ = model(features, labels=labels, training=True)
                loss = model.compute_loss(outputs, labels, training=True)[0]
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        strategy.run(step_fn, args=(features, labels))

    for features, labels in strategy.experimental_distribute_dataset(dataset):
        train_step(features, labels)
