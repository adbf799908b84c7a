import tensorflow as tf
from transformers import TFAutoModelForSequenceClassification, TFTrainingArguments

training_args = TFTrainingArguments(output_dir="out")
with training_args.strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
model.compile(optimizer=tf.keras.optimizers.Adam(3e-5))  # expect: TFS002
