"Package metadata from settings.ini (nbdev 3 itself reads only pyproject.toml [tool.nbdev])."
from configparser import ConfigParser
from setuptools import setup, find_packages

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
c = cfg['DEFAULT']

setup(
    name=c['lib_name'], version=c['version'], description=c['description'],
    author=c['author'], license=c['license'], keywords=c['keywords'].split(),
    python_requires=f">={c['min_python']}",
    packages=find_packages(include=['playworld', 'playworld.*']),
    include_package_data=True, package_data={'playworld': ['envs/assets/*.xml']},
    install_requires=c['requirements'].split(),
    extras_require={'dev': c['dev_requirements'].split(), 'ray': c['ray_requirements'].split()},
    entry_points={'console_scripts': c['console_scripts'].split()},
    zip_safe=False,
)
