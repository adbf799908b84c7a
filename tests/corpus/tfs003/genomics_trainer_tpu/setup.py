from setuptools import setup

setup(name="genomics-trainer", packages=["trainer"])
