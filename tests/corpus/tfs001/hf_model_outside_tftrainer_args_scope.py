from transformers import TFAutoModelForSequenceClassification, TFTrainer, TFTrainingArguments

# TFTrainer builds the optimizer and runs every step under training_args.strategy: the model must be created
# in training_args.strategy.scope() (huggingface/transformers#8448, #4456, #12202)
training_args = TFTrainingArguments(output_dir="out", num_train_epochs=1, per_device_train_batch_size=16)
model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)  # expect: TFS001

trainer = TFTrainer(model=model, args=training_args, train_dataset=None)
trainer.train()
