from setuptools import find_packages, setup

setup(
    name="medreg",
    version="0.4.0",
    packages=find_packages(),
    install_requires=["tensorflow==2.3.1", "numpy>=1.18"],
)
