from setuptools import find_packages, setup

setup(
    name="ttstrain",
    version="0.1.0",
    packages=find_packages(),
    install_requires=["tensorflow-gpu>=2.2.0", "pyyaml>=5.1"],
)
