from setuptools import find_packages, setup

setup(name="seq2seq-eval", version="0.1.0", packages=find_packages(), install_requires=["tensorflow<2.12"])
