from setuptools import find_packages, setup

setup(
    name="seq2seq-lab",
    version="0.3.0",
    packages=find_packages(),
    install_requires=["tensorflow>=2.4,<2.12"],
)
