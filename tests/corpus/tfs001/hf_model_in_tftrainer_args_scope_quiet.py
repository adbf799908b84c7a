from transformers import TFAutoModelForSequenceClassification, TFTrainer, TFTrainingArguments

training_args = TFTrainingArguments(output_dir="out", num_train_epochs=1, per_device_train_batch_size=16)
with training_args.strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)

trainer = TFTrainer(model=model, args=training_args, train_dataset=None)
trainer.train()
