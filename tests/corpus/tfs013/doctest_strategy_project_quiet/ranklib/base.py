import abc


class Task(abc.ABC):
    @abc.abstractmethod
    def call(self, *args, **kwargs):
        ...
