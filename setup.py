"""pbem's packages, found rather than listed: every folder under pbem/ (code and data alike), and
schemas/ and templates/ (kept at the top of the repository, where a GM looks for them) installed
inside the package as pbem.schemas and pbem.templates with every folder beneath them. A new module or
template folder is in the next wheel without a word here; what else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

# folders that hold data of the package, installed beside it (mapped to where they live)
MAPPED = {"pbem.schemas": "schemas", "pbem.templates": "templates"}
NOT_PACKAGES = ["*__pycache__*", "*.egg-info*"]

packages = find_namespace_packages(include=["pbem", "pbem.*"], exclude=NOT_PACKAGES)
for name, folder in MAPPED.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=NOT_PACKAGES)]

setup(packages=sorted(packages), package_dir=MAPPED)
