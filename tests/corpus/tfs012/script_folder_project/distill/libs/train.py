# corpus: keras-version=2
import tensorflow as tf


class Trainer:
    def __init__(self, student, dataset):
        self.student = student
        self.dataset = dataset

    def train_comparative(self):
        optimizer = tf.keras.optimizers.Adam(1e-4)

        @tf.function
        def train_step(image_lr, image_hr):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.student(image_lr) - image_hr))
            gradient = tape.gradient(loss, self.student.trainable_variables)
            optimizer.apply_gradients(zip(gradient, self.student.trainable_variables))

        for image_lr, image_hr in self.dataset:
            train_step(image_lr, image_hr)  # expect: TFS012
