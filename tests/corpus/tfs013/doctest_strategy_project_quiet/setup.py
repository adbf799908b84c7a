from setuptools import find_packages, setup

setup(
    name="ranklib",
    version="0.7.0",
    packages=find_packages(),
    install_requires=["tensorflow>=2.9,<2.16"],
)
